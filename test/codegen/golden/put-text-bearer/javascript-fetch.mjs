const response = await fetch("https://api.example.com/notes/1", {
  method: "PUT",
  headers: {
    "Authorization": "Bearer eyJhbGciOi.J9",
    "Content-Type": "text/plain",
  },
  body: "Hello, world.\nSecond line.",
});

console.log(response.status);
console.log(await response.text());
