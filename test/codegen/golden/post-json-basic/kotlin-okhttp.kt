import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/users")
        .addHeader("X-Workspace", "ferry")
        .addHeader("Authorization", "Basic dXNlcjpwQHNz")
        .method("POST", "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}".toByteArray().toRequestBody("application/json".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
