// OAuth 2.0: Ferry has no cached access token for this request.
// Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
import axios from "axios";

const response = await axios.request({
  method: "GET",
  url: "https://api.example.com/me",
  headers: {
    "Authorization": "Bearer <access-token>",
  },
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
