http --ignore-stdin --raw '{"query":"query User($id: ID!) { user(id: $id) { name } }","variables":{"id":"1"},"operationName":"User"}' POST https://api.example.com/graphql \
  'Authorization:Bearer cached-token-123' \
  Content-Type:application/json
