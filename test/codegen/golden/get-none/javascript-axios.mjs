import axios from "axios";

const response = await axios.request({
  method: "GET",
  url: "https://api.example.com/users?page=2&sort=name",
  headers: {
    "Accept": "application/json",
    "X-Trace": "abc",
  },
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
