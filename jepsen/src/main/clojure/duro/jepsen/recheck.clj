(ns duro.jepsen.recheck
  "Runs the checkers again on the histories of earlier runs (no cluster, no root needed):
    jepsen/run recheck jepsen/store/<run> ...
  Writes <run>/results-recheck.edn and prints one verdict per run; exits non-zero unless every verdict is true."
  (:require [clojure.edn :as edn]
            [clojure.java.io :as io]
            [duro.jepsen.checks :as checks]
            [duro.jepsen.store :as store]))

(defn- read-history [dir]
  (if-let [read-edn (try (requiring-resolve 'duro.jepsen.history/read-edn) (catch Throwable _ nil))]
    (vec (read-edn (str (io/file dir "history.edn"))))
    (with-open [r (java.io.PushbackReader. (io/reader (io/file dir "history.edn")))]
      (vec (take-while some? (repeatedly #(edn/read {:eof nil} r)))))))

(defn recheck [dir]
  (let [test (edn/read-string (slurp (io/file dir "test.edn")))
        old (let [f (io/file dir "results.edn")] (when (.exists f) (edn/read-string (slurp f))))
        workload (:workload test)
        opts (or (:check-opts old)
                 (merge {:quiet-from-ns 0 :workload workload}
                        (when (= :bank workload) {:accounts (vec (range 8)) :total 800})
                        (when (= :predicate workload) {:groups 4 :bound 5})))
        result (checks/check workload opts (read-history dir))]
    (store/write-edn! (io/file dir "results-recheck.edn") (assoc result :check-opts opts))
    (println (pr-str (:valid? result)) (str dir)
             (if (seq (:unknown result)) (str "unknown: " (pr-str (:unknown result))) ""))
    (doseq [[k r] (:checkers result)]
      (println "   " k (pr-str (:valid? r)) (or (:error r) "")))
    result))

(defn -main [& dirs]
  (let [results (mapv recheck dirs)
        bad (count (remove #(true? (:valid? %)) results))]
    (println (str (- (count results) bad) " passed, " bad " failed"))
    (shutdown-agents)
    (System/exit (if (zero? bad) 0 1))))
