const response = await fetch("https://api.example.com/users?page=2&sort=name", {
  method: "GET",
  headers: {
    "Accept": "application/json",
    "X-Trace": "abc",
  },
});

console.log(response.status);
console.log(await response.text());
