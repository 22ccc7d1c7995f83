import { withTax } from "./price.js";

export const invoiceLine = (item, net) => `${item}: ${withTax(net).toFixed(2)} (tax ${0.2 * 100}%)`;
