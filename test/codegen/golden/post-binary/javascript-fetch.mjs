const body = Uint8Array.from(atob("AAEC/v8iXD8KQQ=="), (c) => c.charCodeAt(0));
const response = await fetch("https://api.example.com/blobs", {
  method: "POST",
  headers: {
    "Content-Type": "application/octet-stream",
  },
  body,
});

console.log(response.status);
console.log(await response.text());
