import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/graphql")
        .addHeader("Authorization", "Bearer cached-token-123")
        .method("POST", "{\"query\":\"query User(\$id: ID!) { user(id: \$id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}".toByteArray().toRequestBody("application/json".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
