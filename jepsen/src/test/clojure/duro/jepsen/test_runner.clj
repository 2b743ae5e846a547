(ns duro.jepsen.test-runner
  "Runs every test namespace under duro.jepsen (those whose names end in -test), or those named on the command
  line, and exits non-zero on any failure or error, so Maven's test phase fails with them."
  (:require [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.test :as t]))

(defn- test-namespaces
  "The test namespaces found on the class path's test directory."
  []
  (let [root (io/file "target/test-classes")]
    (->> (file-seq root)
         (map #(str (.relativize (.toPath root) (.toPath ^java.io.File %))))
         (filter #(str/ends-with? % "_test.clj"))
         (map #(-> %
                   (str/replace #"\.clj$" "")
                   (str/replace "/" ".")
                   (str/replace "_" "-")
                   symbol))
         sort)))

(defn -main
  "Runs the named test namespaces, or, with no arguments, every one found."
  [& args]
  (let [nss (if (seq args) (map symbol args) (test-namespaces))]
    (when (empty? nss)
      (println "no test namespaces found under target/test-classes")
      (System/exit 1))
    (apply require nss)
    (let [{:keys [fail error test]} (apply t/run-tests nss)]
      (shutdown-agents)
      (System/exit (if (and (pos? test) (zero? (+ fail error))) 0 1)))))
