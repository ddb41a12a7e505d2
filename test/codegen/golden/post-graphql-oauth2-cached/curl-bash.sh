curl https://api.example.com/graphql \
  -H 'Authorization: Bearer cached-token-123' \
  -H 'Content-Type: application/json' \
  --data-raw '{"query":"query User($id: ID!) { user(id: $id) { name } }","variables":{"id":"1"},"operationName":"User"}'
