import requests

url = "https://api.example.com/users?page=2&sort=name"
headers = {
    "Accept": "application/json",
    "X-Trace": "abc",
}

response = requests.request("GET", url, headers=headers)

print(response.status_code)
print(response.text)
