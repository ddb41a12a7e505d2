http --ignore-stdin GET 'https://api.example.com/users?page=2&sort=name' \
  Accept:application/json \
  X-Trace:abc
