curl.exe 'https://api.example.com/login?api_key=k3y%2B1' `
  -H 'Content-Type: application/x-www-form-urlencoded' `
  --data-raw 'user=ada&pass=p%40ss+word'
