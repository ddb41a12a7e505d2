// Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
// Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
import axios from "axios";

const response = await axios.request({
  method: "GET",
  url: "https://api.example.com/private",
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
