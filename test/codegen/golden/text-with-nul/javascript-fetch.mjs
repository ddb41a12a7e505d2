const response = await fetch("https://api.example.com/raw", {
  method: "POST",
  headers: {
    "Content-Type": "text/plain",
  },
  body: "a\u0000b\u0001c\u001b[0m\u007fd",
});

console.log(response.status);
console.log(await response.text());
