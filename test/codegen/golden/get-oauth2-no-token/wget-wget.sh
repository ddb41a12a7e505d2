# OAuth 2.0: Ferry has no cached access token for this request.
# Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
wget --quiet \
  --output-document=- \
  --method=GET \
  --header='Authorization: Bearer <access-token>' \
  https://api.example.com/me
