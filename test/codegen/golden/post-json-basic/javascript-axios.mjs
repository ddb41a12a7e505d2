import axios from "axios";

const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/users",
  headers: {
    "X-Workspace": "ferry",
    "Authorization": "Basic dXNlcjpwQHNz",
    "Content-Type": "application/json",
  },
  data: "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
