import { shout } from "./utils/old-name.js";

console.log(shout("a"));
