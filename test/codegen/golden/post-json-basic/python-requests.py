import requests

url = "https://api.example.com/users"
headers = {
    "X-Workspace": "ferry",
    "Authorization": "Basic dXNlcjpwQHNz",
    "Content-Type": "application/json",
}
body = "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}".encode("utf-8")

response = requests.request("POST", url, headers=headers, data=body)

print(response.status_code)
print(response.text)
