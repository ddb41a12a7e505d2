// Content-Type left out: axios sets it with the multipart boundary.
// FormData cannot set a Content-Type on text parts; sent without it: meta.
import axios from "axios";
import { readFile } from "node:fs/promises";

const form = new FormData();
form.append("title", "Holiday");
form.append("meta", "{\"a\":1}");
form.append("photo", new Blob([await readFile("/home/me/api/files/photo.png")], { type: "image/png" }), "photo.png");
const response = await axios.request({
  method: "POST",
  url: "https://api.example.com/upload",
  data: form,
  responseType: "text",
  // Answer every status instead of throwing on 4xx and 5xx.
  validateStatus: () => true,
});

console.log(response.status);
console.log(response.data);
