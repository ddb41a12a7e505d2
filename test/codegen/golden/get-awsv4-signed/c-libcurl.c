// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).
#include <stdio.h>
#include <curl/curl.h>

int main(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  if (!curl)
    return 1;
  struct curl_slist *headers = NULL;
  headers = curl_slist_append(headers, "X-Amz-Date: 20260101T000000Z");
  headers = curl_slist_append(headers, "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_URL, "https://api.example.com/bucket/key");

  CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK)
    fprintf(stderr, "%s\n", curl_easy_strerror(result));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return result == CURLE_OK ? 0 : 1;
}
