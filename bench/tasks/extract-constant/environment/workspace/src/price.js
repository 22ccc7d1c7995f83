export const withTax = (net) => net * (1 + 0.2);
