curl.exe 'https://api.example.com/users?page=2&sort=name' `
  -H 'Accept: application/json' `
  -H 'X-Trace: abc'
