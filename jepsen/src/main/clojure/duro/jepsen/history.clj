(ns duro.jepsen.history
  "Histories: vectors of operation maps in Jepsen's form.

  Every operation is a map with
    :type    :invoke, :ok, :fail or :info
    :f       the operation's function, a keyword (:txn, :read, :write, :cas, :transfer, :add ...)
    :value   the operation's argument (invoke) or result (completion)
    :process the logical process (an integer; :nemesis for the nemesis)
    :time    nanoseconds since the test started
    :index   the operation's position in the history, from 0
  A completion (:ok/:fail/:info) follows its :invoke in the same process. A process whose operation ended
  :info is retired: its next operation comes from a fresh process number.")

(defn index
  "Gives each operation its :index, in order."
  [history]
  (into [] (map-indexed (fn [i op] (assoc op :index i))) history))
