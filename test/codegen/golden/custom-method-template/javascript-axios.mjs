import axios from "axios";

const response = await axios.request({
  method: "PROPFIND",
  url: "{{baseUrl}}/dav/{{folder}}?depth={{depth}}",
  headers: {
    "Depth": "1",
  },
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
