import axios from "axios";

const response = await axios.request({
  method: "PUT",
  url: "https://api.example.com/notes/1",
  headers: {
    "Authorization": "Bearer eyJhbGciOi.J9",
    "Content-Type": "text/plain",
  },
  data: "Hello, world.\nSecond line.",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
