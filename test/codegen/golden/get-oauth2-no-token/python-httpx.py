# OAuth 2.0: Ferry has no cached access token for this request.
# Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
import httpx

url = "https://api.example.com/me"
headers = [
    ("Authorization", "Bearer <access-token>"),
]

response = httpx.request("GET", url, headers=headers)

print(response.status_code)
print(response.text)
