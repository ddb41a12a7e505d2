import axios from "axios";

const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/raw",
  headers: {
    "Content-Type": "text/plain",
  },
  data: "a\u0000b\u0001c\u001b[0m\u007fd",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
