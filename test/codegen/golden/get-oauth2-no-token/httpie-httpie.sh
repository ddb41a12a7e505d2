# OAuth 2.0: Ferry has no cached access token for this request.
# Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
http --ignore-stdin GET https://api.example.com/me \
  'Authorization:Bearer <access-token>'
