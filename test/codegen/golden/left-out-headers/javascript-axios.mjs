// Host and Content-Length left out: axios sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Accept-Encoding left out: axios sends its own and decompresses the answer.
import axios from "axios";

const response = await axios.request({
  method: "GET",
  url: "https://api.example.com/things",
  headers: {
    "Content-Type": "application/json",
    "X-Empty": "",
  },
  data: "{\"q\":\"body on GET\"}",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
