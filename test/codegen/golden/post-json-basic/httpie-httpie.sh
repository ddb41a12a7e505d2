http --ignore-stdin --raw '{
  "name": "Ada",
  "tags": ["a", "b"]
}' POST https://api.example.com/users \
  X-Workspace:ferry \
  'Authorization:Basic dXNlcjpwQHNz' \
  Content-Type:application/json
