// Host and Content-Length left out: fetch sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Accept-Encoding left out: fetch sends its own and decompresses the answer.
// Body left out: fetch cannot send a body with GET.
const response = await fetch("https://api.example.com/things", {
  method: "GET",
  headers: {
    "Content-Type": "application/json",
    "X-Empty": "",
  },
});

console.log(response.status);
console.log(await response.text());
