import base64
import requests

url = "https://api.example.com/blobs"
headers = {
    "Content-Type": "application/octet-stream",
}
body = base64.b64decode("AAEC/v8iXD8KQQ==")

response = requests.request("POST", url, headers=headers, data=body)

print(response.status_code)
print(response.text)
