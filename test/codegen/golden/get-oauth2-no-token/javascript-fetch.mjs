// OAuth 2.0: Ferry has no cached access token for this request.
// Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
const response = await fetch("https://api.example.com/me", {
  method: "GET",
  headers: {
    "Authorization": "Bearer <access-token>",
  },
});

console.log(response.status);
console.log(await response.text());
