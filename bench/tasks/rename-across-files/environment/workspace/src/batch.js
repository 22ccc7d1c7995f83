import { greet } from "./greet.js";

export const greetAll = (names) => names.map((name) => greet(name));
