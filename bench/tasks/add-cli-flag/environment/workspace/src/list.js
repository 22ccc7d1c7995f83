const items = ["apple", "banana", "cherry"];

for (const item of items) console.log(item);
