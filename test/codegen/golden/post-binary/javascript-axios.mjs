import axios from "axios";

const data = Buffer.from("AAEC/v8iXD8KQQ==", "base64");
const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/blobs",
  headers: {
    "Content-Type": "application/octet-stream",
  },
  data,
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
