const response = await fetch("https://api.example.com/graphql", {
  method: "POST",
  headers: {
    "Authorization": "Bearer cached-token-123",
    "Content-Type": "application/json",
  },
  body: "{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}",
});

console.log(response.status);
console.log(await response.text());
