// Content-Type left out: fetch sets it with the multipart boundary.
// FormData cannot set a Content-Type on text parts; sent without it: meta.
import { readFile } from "node:fs/promises";

const form = new FormData();
form.append("title", "Holiday");
form.append("meta", "{\"a\":1}");
form.append("photo", new Blob([await readFile("/home/me/api/files/photo.png")], { type: "image/png" }), "photo.png");
const response = await fetch("https://api.example.com/upload", {
  method: "POST",
  body: form,
});

console.log(response.status);
console.log(await response.text());
