import base64
import httpx

url = "https://api.example.com/blobs"
headers = [
    ("Content-Type", "application/octet-stream"),
]
body = base64.b64decode("AAEC/v8iXD8KQQ==")

response = httpx.request("POST", url, headers=headers, content=body)

print(response.status_code)
print(response.text)
