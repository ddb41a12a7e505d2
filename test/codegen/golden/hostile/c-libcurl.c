#include <stdio.h>
#include <curl/curl.h>

int main(void) {
  static const char body[] = "line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode h\303\251llo \346\227\245\346\234\254 \360\237\232\200, typographic \342\200\230quotes\342\200\231\r\nend";
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  if (!curl)
    return 1;
  struct curl_slist *headers = NULL;
  headers = curl_slist_append(headers, "X-Quote: it's \"quoted\"");
  headers = curl_slist_append(headers, "X-Dollar: $HOME $(id) `id` ${x} #{y}");
  headers = curl_slist_append(headers, "X-Backslash: C:\\path\\n\\\"end\\");
  headers = curl_slist_append(headers, "X-Percent: %PATH% 100% %%");
  headers = curl_slist_append(headers, "X-Caret: a^b & c | d > e < f !g");
  headers = curl_slist_append(headers, "X-Multi: one");
  headers = curl_slist_append(headers, "X-Multi: two");
  headers = curl_slist_append(headers, "Cookie: a=1");
  headers = curl_slist_append(headers, "Cookie: b=2");
  headers = curl_slist_append(headers, "Content-Type: text/plain; charset=utf-8");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_URL, "https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22\?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC");
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "PATCH");
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)(sizeof body - 1));

  CURLcode result = curl_easy_perform(curl);
  if (result != CURLE_OK)
    fprintf(stderr, "%s\n", curl_easy_strerror(result));
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return result == CURLE_OK ? 0 : 1;
}
