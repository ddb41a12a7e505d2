import httpx

url = "https://api.example.com/raw"
headers = [
    ("Content-Type", "text/plain"),
]
body = "a\x00b\x01c\x1b[0m\x7fd".encode("utf-8")

response = httpx.request("POST", url, headers=headers, content=body)

print(response.status_code)
print(response.text)
