# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 23.0858
64 22.1796
EOD
$t0_1 << EOD
64 23.4249
EOD
$t0_2 << EOD
64 19.2125
64 18.8831
EOD
$t0_3 << EOD
64 20.6803
EOD
$t0_4 << EOD
64 18.5313
EOD
$t0_5 << EOD
64 17.6329
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
64 5.93016
64 5.92873
EOD
$t1_1 << EOD
64 7.72107
EOD
$t1_2 << EOD
64 5.8782
64 5.86942
EOD
$t1_3 << EOD
64 7.59727
EOD
$t1_4 << EOD
64 7.27587
EOD
$t1_5 << EOD
64 7.24848
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
64 8.34932
64 8.4127
EOD
$t2_1 << EOD
64 9.68458
EOD
$t2_2 << EOD
64 5.36854
64 5.20395
EOD
$t2_3 << EOD
64 9.65895
EOD
$t2_4 << EOD
64 6.12613
EOD
$t2_5 << EOD
64 5.96309
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
64 25.07
64 23.6182
EOD
$t3_1 << EOD
64 26.9585
EOD
$t3_2 << EOD
64 21.8727
64 19.4351
EOD
$t3_3 << EOD
64 22.6351
EOD
$t3_4 << EOD
64 23.5271
EOD
$t3_5 << EOD
64 26.6145
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
"cpu/sum: tilejit width-1, 1 thread" 1.01469
"cpu/sum: tilejit width-1, 2 threads" 1.0764
"cpu/sum: tilejit cooperative, 1 thread" 0.83551
"cpu/sum: tilejit cooperative, 2 threads" 0.933793
"cpu/histogram: tilejit width-1, 1 thread" 1.302
"cpu/histogram: tilejit width-1, 2 threads" 1.29245
"cpu/histogram: tilejit cooperative, 1 thread" 1.22722
"cpu/histogram: tilejit cooperative, 2 threads" 1.23496
"cpu/compact: tilejit width-1, 1 thread" 1.15993
"cpu/compact: tilejit width-1, 2 threads" 1.79918
"cpu/compact: tilejit cooperative, 1 thread" 0.728201
"cpu/compact: tilejit cooperative, 2 threads" 1.14588
"cpu/copy: tilejit width-1, 1 thread" 1.07533
"cpu/copy: tilejit width-1, 2 threads" 1.03486
"cpu/copy: tilejit cooperative, 1 thread" 0.996144
"cpu/copy: tilejit cooperative, 2 threads" 1.3694
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
"ptx/store_doubled_thread_indices" 17.2462
"ptx/multiply_elements" 13.3645
"ptx/row_products" 10.1741
"ptx/replace_rows" 11.001
"ptx/histogram" 13.711
"ptx/compact_values" 7.26311
"ptx/large" 1.71455
"ptx-first/store_doubled_thread_indices" 7.14486
"ptx-first/multiply_elements" 7.08766
"ptx-first/row_products" 5.96915
"ptx-first/replace_rows" 6.52645
"ptx-first/histogram" 6.53756
"ptx-first/compact_values" 4.84785
"ptx-first/large" 1.60271
"disk/store_doubled_thread_indices" 3.68626
"disk/store_doubled_thread_indices (CPU)" 10.7749
"disk/multiply_elements" 3.8836
"disk/multiply_elements (CPU)" 16.2354
"disk/row_products" 3.92314
"disk/row_products (CPU)" 8.35451
"disk/replace_rows" 3.62344
"disk/replace_rows (CPU)" 10.0069
"disk/histogram" 3.76452
"disk/histogram (CPU)" 9.29644
"disk/compact_values" 3.97313
"disk/compact_values (CPU)" 8.92905
"disk/large" 8.40965
"disk/large (CPU)" 31.0075
"source/store_doubled_thread_indices" 14.5858
"source-first/store_doubled_thread_indices" 6.8836
"source/multiply_elements" 13.3236
"source-first/multiply_elements" 6.78641
"source/row_products" 10.4435
"source-first/row_products" 5.77328
"source/replace_rows" 11.7034
"source-first/replace_rows" 6.38115
"source/histogram" 12.3104
"source-first/histogram" 6.16047
"source/compact_values" 7.16626
"source-first/compact_values" 4.59468
"source/large" 1.6198
"source-first/large" 1.5727
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
