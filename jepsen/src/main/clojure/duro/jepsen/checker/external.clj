(ns duro.jepsen.checker.external
  "What the checkers that run external programs share: finding the jepsen module's directory, running a
  command, and knowing whether a tool is installed."
  (:require [clojure.java.io :as io]
            [clojure.java.shell :as sh]
            [clojure.string :as str]))

(defn module-dir
  "The jepsen module's directory: the system property duro.jepsen.dir if set, else the working directory
  when it is the module (Maven runs the tests there), else ./jepsen (the repository root)."
  ^java.io.File []
  (let [prop (System/getProperty "duro.jepsen.dir")]
    (cond
      prop (io/file prop)
      (.exists (io/file "porcupine" "go.mod")) (io/file ".")
      :else (io/file "jepsen"))))

(defn target-file
  "A file under the module's target directory, its parent directories created."
  ^java.io.File [& path]
  (let [f (apply io/file (module-dir) "target" path)]
    (.mkdirs (.getParentFile ^java.io.File f))
    f))

(defn on-path?
  "Whether an executable named `tool` is on the PATH."
  [tool]
  (boolean (some #(.canExecute (io/file % tool))
                 (str/split (or (System/getenv "PATH") "") (re-pattern java.io.File/pathSeparator)))))

(defn exec!
  "Runs a command (strings), optionally in directory `dir`; returns {:exit :out :err}. Throws if the exit
  status is not in `ok-exits`."
  [cmd & {:keys [dir ok-exits] :or {ok-exits #{0}}}]
  (let [result (apply sh/sh (concat cmd (when dir [:dir (str dir)])))]
    (when-not (contains? ok-exits (:exit result))
      (throw (ex-info (str (str/join " " cmd) " exited with " (:exit result) ": " (:err result))
                      (assoc result :cmd cmd))))
    result))

(defn newer?
  "Whether file `f` exists and is at least as new as every file in `sources`."
  [^java.io.File f sources]
  (and (.exists f) (every? #(>= (.lastModified f) (.lastModified ^java.io.File %)) sources)))
