// Gradle build of the Alama Android library (AAR). Fill the module first:
//   bash bindings/mobile/android/build-aar.sh
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}
dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}
rootProject.name = "alama-android"
include(":alama")
