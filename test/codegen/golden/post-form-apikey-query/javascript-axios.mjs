import axios from "axios";

const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/login?api_key=k3y%2B1",
  headers: {
    "Content-Type": "application/x-www-form-urlencoded",
  },
  data: "user=ada&pass=p%40ss+word",
  // Send the text as written (axios would re-encode JSON text).
  transformRequest: [(data) => data],
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
