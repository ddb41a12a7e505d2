const response = await fetch("https://api.example.com/users", {
  method: "POST",
  headers: {
    "X-Workspace": "ferry",
    "Authorization": "Basic dXNlcjpwQHNz",
    "Content-Type": "application/json",
  },
  body: "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}",
});

console.log(response.status);
console.log(await response.text());
