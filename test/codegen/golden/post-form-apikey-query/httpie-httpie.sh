http --ignore-stdin --raw 'user=ada&pass=p%40ss+word' POST 'https://api.example.com/login?api_key=k3y%2B1' \
  Content-Type:application/x-www-form-urlencoded
