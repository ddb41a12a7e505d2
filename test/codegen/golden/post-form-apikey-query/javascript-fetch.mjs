const response = await fetch("https://api.example.com/login?api_key=k3y%2B1", {
  method: "POST",
  headers: {
    "Content-Type": "application/x-www-form-urlencoded",
  },
  body: "user=ada&pass=p%40ss+word",
});

console.log(response.status);
console.log(await response.text());
