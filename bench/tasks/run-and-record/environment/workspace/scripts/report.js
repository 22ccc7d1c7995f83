const rows = [["north", 12], ["south", 7]];
for (const [region, sales] of rows) console.log(`${region.padEnd(8)}${String(sales).padStart(4)}`);
console.log(`total   ${String(rows.reduce((sum, [, sales]) => sum + sales, 0)).padStart(4)}`);
