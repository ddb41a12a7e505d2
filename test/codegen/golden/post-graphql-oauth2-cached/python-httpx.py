import httpx

url = "https://api.example.com/graphql"
headers = [
    ("Authorization", "Bearer cached-token-123"),
    ("Content-Type", "application/json"),
]
body = "{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}".encode("utf-8")

response = httpx.request("POST", url, headers=headers, content=body)

print(response.status_code)
print(response.text)
