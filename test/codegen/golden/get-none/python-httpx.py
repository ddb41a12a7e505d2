import httpx

url = "https://api.example.com/users?page=2&sort=name"
headers = [
    ("Accept", "application/json"),
    ("X-Trace", "abc"),
]

response = httpx.request("GET", url, headers=headers)

print(response.status_code)
print(response.text)
