(ns duro.jepsen.nemesis
  "Faults, on a schedule. Each fault has a start and a stop (heal):
    :kill      kill -9 a minority of nodes; restart them at stop
    :pause     SIGSTOP a minority of nodes; SIGCONT at stop
    :partition cut the network: random halves, the current leader of a partition group isolated, or a bridge
               (for 5+ nodes also a majorities ring); heal at stop
    :loss      drop a share of every node's incoming packets (nftables numgen); heal at stop
    :wipe      kill -9 a node that leads no partition group, delete its data directory; restart it empty at
               stop (it must catch up from a snapshot / the leaders' logs)
    :mix       each window one of the above at random
  Every start and stop goes into the history as :nemesis :info operations and into the timeline (nemesis.edn)."
  (:require [clojure.string :as str]
            [duro.jepsen.db :as db]
            [duro.jepsen.net :as net]
            [duro.jepsen.util :as u]))

(def kinds [:kill :pause :partition :loss :wipe])

(defn- pick [^java.util.Random rng xs] (nth (vec xs) (.nextInt rng (count xs))))

(defn- minority [^java.util.Random rng nodes]
  (let [k (max 1 (quot (dec (count nodes)) 2))
        n (inc (.nextInt rng k))]
    (vec (take n (u/shuffle-with rng nodes)))))

(defn leaders
  "Node ids that lead some partition group, by the cluster view (best effort: empty when unknown)."
  [test]
  (try
    (with-open [c (db/client test)]
      (let [view (.refreshCluster c)
            by-addr (into {} (map (fn [n] [(db/client-address (:hosts test) n) n]) (:nodes test)))]
        (into {} (for [p (range (.partitionCount view))
                       :let [l (.leader view p)]
                       :when l]
                   [p (by-addr (str (.host l) ":" (.port l)))]))))
    (catch Exception _ {})))

(defmulti start! (fn [kind _test _rng] kind))
(defmulti stop! (fn [kind _test _state] kind))

(defmethod start! :kill [_ test rng]
  (let [targets (minority rng (:nodes test))]
    (doseq [n targets] (db/kill! test n))
    {:targets targets}))

(defmethod stop! :kill [_ test {:keys [targets]}]
  (doseq [n targets] (db/start! test n))
  {:restarted targets})

(defmethod start! :pause [_ test rng]
  (let [targets (minority rng (:nodes test))]
    (doseq [n targets] (db/pause! test n))
    {:targets targets}))

(defmethod stop! :pause [_ test {:keys [targets]}]
  (doseq [n targets] (db/resume! test n))
  {:resumed targets})

(defmethod start! :partition [_ test ^java.util.Random rng]
  (let [nodes (:nodes test)
        shape (pick rng [:halves :isolate-leader (if (>= (count nodes) 5) :majorities-ring :bridge)])
        [shape grudge detail]
        (case shape
          :halves [shape (net/halves nodes rng) nil]
          :isolate-leader (let [ls (leaders test)]
                            (if (seq ls)
                              (let [[p node] (pick rng (sort ls))]
                                [shape (net/isolate nodes node) {:partition p :leader node}])
                              [:halves (net/halves nodes rng) {:note "no leader known"}]))
          :bridge [shape (net/bridge nodes rng) nil]
          :majorities-ring [shape (net/majorities-ring nodes rng) nil])
        cut (net/partition! (:hosts test) grudge)]
    (cond-> {:shape shape :targets (vec (sort (keys grudge)))
             :cut (into (sorted-map) (map (fn [[k v]] [k (vec (sort v))]) cut))}
      detail (assoc :detail detail))))

(defmethod stop! :partition [_ test _]
  (net/heal! (:hosts test))
  {:healed true})

(defmethod start! :loss [_ test ^java.util.Random rng]
  (let [percent (+ 10 (* 5 (.nextInt rng 5)))]
    (net/loss! (:hosts test) (:nodes test) percent)
    {:targets (:nodes test) :percent percent}))

(defmethod stop! :loss [_ test _]
  (net/heal! (:hosts test))
  {:healed true})

(defmethod start! :wipe [_ test rng]
  (let [leading (set (vals (leaders test)))
        followers (remove leading (:nodes test))
        target (pick rng (if (seq followers) followers (:nodes test)))]
    (db/kill! test target)
    (db/wipe! test target)
    {:targets [target] :leader? (contains? leading target)}))

(defmethod stop! :wipe [_ test {:keys [targets]}]
  (doseq [n targets] (db/start! test n))
  {:restarted targets})

(defn heal-all!
  "Undoes everything: network rules gone, paused nodes resumed, dead nodes restarted."
  [test]
  (net/heal! (:hosts test))
  (doseq [n (:nodes test)]
    (db/resume! test n)
    (when-not (db/alive? test n) (db/start! test n))))

(defn run-schedule!
  "The nemesis loop, on its own thread until stop? returns true or the time limit passes: wait first-ms, then
  repeat fault (fault-ms random in [fault-min-ms, fault-max-ms]) and heal (heal-ms). record! appends a history
  operation; timeline is an atom of fault windows. Returns when everything is healed."
  [test {:keys [kinds rng record! timeline end-ns first-ms fault-min-ms fault-max-ms heal-ms]
         :or {first-ms 5000 fault-min-ms 10000 fault-max-ms 20000 heal-ms 10000}}]
  (let [now #(- (System/nanoTime) (:start-ns test))
        sleep-until (fn [t] (loop [] (let [left (- t (now))]
                                       (when (pos? left)
                                         (Thread/sleep (long (min 200 (quot left 1000000))))
                                         (recur)))))]
    (when (seq kinds)
      (sleep-until (* first-ms 1000000))
      (loop []
        (when (< (+ (now) (* fault-min-ms 1000000)) end-ns)
          (let [^java.util.Random rng rng
                kind (let [k (pick rng kinds)] (if (= k :mix) (pick rng kinds) k))
                kind (if (= kind :mix) (pick rng [:kill :pause :partition :loss :wipe]) kind)
                f-start (keyword (str "start-" (name kind)))
                f-stop (keyword (str "stop-" (name kind)))
                t0 (now)
                _ (record! {:type :info :f f-start :value nil})
                state (try (start! kind test rng)
                           (catch Exception e {:error (str e)}))
                _ (record! {:type :info :f f-start :value state})
                _ (u/log "nemesis:" (name f-start) (pr-str state))
                dur (+ fault-min-ms (.nextInt rng (int (inc (- fault-max-ms fault-min-ms)))))
                _ (sleep-until (min (+ t0 (* dur 1000000)) end-ns))
                _ (record! {:type :info :f f-stop :value nil})
                result (try (stop! kind test state)
                            (catch Exception e {:error (str e)}))
                t1 (now)]
            (record! {:type :info :f f-stop :value result})
            (u/log "nemesis:" (name f-stop) (pr-str result))
            (swap! timeline conj {:kind kind :start-ns t0 :stop-ns t1
                                  :targets (:targets state) :start state :stop result})
            (sleep-until (min (+ (now) (* heal-ms 1000000)) end-ns))
            (recur)))))
    (heal-all! test)))
