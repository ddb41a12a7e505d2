import requests

url = "https://api.example.com/raw"
headers = {
    "Content-Type": "text/plain",
}
body = "a\x00b\x01c\x1b[0m\x7fd".encode("utf-8")

response = requests.request("POST", url, headers=headers, data=body)

print(response.status_code)
print(response.text)
