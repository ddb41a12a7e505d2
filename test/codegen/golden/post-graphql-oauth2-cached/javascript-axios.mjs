import axios from "axios";

const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/graphql",
  headers: {
    "Authorization": "Bearer cached-token-123",
    "Content-Type": "application/json",
  },
  data: "{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
