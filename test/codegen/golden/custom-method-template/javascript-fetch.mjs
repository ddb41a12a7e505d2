const response = await fetch("{{baseUrl}}/dav/{{folder}}?depth={{depth}}", {
  method: "PROPFIND",
  headers: {
    "Depth": "1",
  },
});

console.log(response.status);
console.log(await response.text());
