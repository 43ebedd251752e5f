# Charts of the tilejit-bench run in bench/results/cpu-2026-12-01c.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-2026-12-01c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-2026-12-01c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 13.271
64 11.9649
EOD
$t0_1 << EOD
64 10.9921
EOD
$t0_2 << EOD
4 10.7483
64 35.8469
EOD
$t0_3 << EOD
64 37.9627
EOD
$t0_4 << EOD
4 0.130105
EOD
$t0_5 << EOD
4 0.260723
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 3.73086
64 3.735
EOD
$t1_1 << EOD
64 1.62939
EOD
$t1_2 << EOD
4 1.62071
64 6.25052
EOD
$t1_3 << EOD
64 2.36742
EOD
$t1_4 << EOD
4 0.153245
EOD
$t1_5 << EOD
4 0.288233
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 3.25466
64 3.2134
EOD
$t2_1 << EOD
64 1.48687
EOD
$t2_2 << EOD
4 3.25742
64 4.85087
EOD
$t2_3 << EOD
64 2.74681
EOD
$t2_4 << EOD
4 0.0265621
EOD
$t2_5 << EOD
4 0.0557614
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 16.0896
64 11.6964
EOD
$t3_1 << EOD
64 9.07411
EOD
$t3_2 << EOD
4 5.48603
64 10.6074
EOD
$t3_3 << EOD
64 8.7118
EOD
$t3_4 << EOD
4 0.531342
EOD
$t3_5 << EOD
4 0.685199
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.918692
"cpu/sum: tilejit width-1, 2 threads" 1.05902
"cpu/sum: tilejit cooperative, 1 thread" 0.00980372
"cpu/sum: tilejit cooperative, 2 threads" 0.0242573
"cpu/histogram: tilejit width-1, 1 thread" 0.43625
"cpu/histogram: tilejit width-1, 2 threads" 0.378755
"cpu/histogram: tilejit cooperative, 1 thread" 0.0410749
"cpu/histogram: tilejit cooperative, 2 threads" 0.177844
"cpu/compact: tilejit width-1, 1 thread" 0.462709
"cpu/compact: tilejit width-1, 2 threads" 0.56625
"cpu/compact: tilejit cooperative, 1 thread" 0.00816124
"cpu/compact: tilejit cooperative, 2 threads" 0.0171183
"cpu/copy: tilejit width-1, 1 thread" 0.775807
"cpu/copy: tilejit width-1, 2 threads" 0.821292
"cpu/copy: tilejit cooperative, 1 thread" 0.033024
"cpu/copy: tilejit cooperative, 2 threads" 0.124899
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 8.62868
"ptx/multiply_elements" 7.58399
"ptx/row_products" 4.98354
"ptx/replace_rows" 6.60943
"ptx/histogram" 6.8266
"ptx/compact_values" 4.49206
"ptx/large" 1.38727
"ptx-first/store_doubled_thread_indices" 6.74986
"ptx-first/multiply_elements" 5.97747
"ptx-first/row_products" 4.4955
"ptx-first/replace_rows" 4.47983
"ptx-first/histogram" 4.78771
"ptx-first/compact_values" 3.90545
"ptx-first/large" 1.25049
"disk/store_doubled_thread_indices" 2.41087
"disk/store_doubled_thread_indices (CPU)" 6.74162
"disk/multiply_elements" 2.87858
"disk/multiply_elements (CPU)" 4.65758
"disk/row_products" 3.35969
"disk/row_products (CPU)" 7.44576
"disk/replace_rows" 3.84299
"disk/replace_rows (CPU)" 8.87498
"disk/histogram" 3.19549
"disk/histogram (CPU)" 6.2296
"disk/compact_values" 3.69168
"disk/compact_values (CPU)" 10.6724
"disk/large" 6.69916
"disk/large (CPU)" 28.973
"source/store_doubled_thread_indices" 11.5372
"source-first/store_doubled_thread_indices" 6.19204
"source/multiply_elements" 12.3923
"source-first/multiply_elements" 5.64514
"source/row_products" 6.78756
"source-first/row_products" 4.28584
"source/replace_rows" 7.63136
"source-first/replace_rows" 4.07948
"source/histogram" 8.54592
"source-first/histogram" 3.66622
"source/compact_values" 5.34124
"source-first/compact_values" 3.6803
"source/large" 1.50906
"source-first/large" 1.16046
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
